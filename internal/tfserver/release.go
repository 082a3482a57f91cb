package tfserver

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Workaround for terraform-plugin-framework v1.19.0: internal/proto6server's
// (*Server).registerContext wraps every request's context in context.WithCancel and keeps
// the cancel function until StopProvider, so that Terraform's Stop can cancel requests in
// flight. Through that function each finished request stays reachable with its whole
// context chain (the gRPC stream, per-request logger copies): about 110 KiB per object of
// a plan, 1.4 GiB at 10,000 objects. releasingServer hands the framework a context that
// forwards to the request's until the call returns and then lets go of it; what the
// framework keeps is a few hundred bytes. Delete this file (and its use in
// Wrap) once the framework forgets finished requests:
// TestFrameworkRetainsRequestContexts fails then.

// fullServer is everything the framework's server offers; tf6server looks for the
// optional parts (list resources, actions, state stores) by type assertion, so the
// wrapper must keep them.
type fullServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
	tfprotov6.StateStoreServer
}

// releasingServer runs each unary call with a releasable context. Streaming calls
// (ListResource, InvokeAction, ReadStateBytes, WriteStateBytes) use their context after
// they return, so they go through unchanged, as do the state store calls, which this
// provider does not serve.
type releasingServer struct{ fullServer }

// released runs call with a context that forgets ctx once call returns.
func released[Req, Resp any](ctx context.Context, req Req, call func(context.Context, Req) (Resp, error)) (Resp, error) {
	rctx, release := releasable(ctx)
	defer release()
	return call(rctx, req)
}

// releasableContext forwards deadline, cancellation and values to its parent until
// released; then it is done (Canceled) and has no parent, deadline or values.
type releasableContext struct {
	mu     sync.Mutex
	parent context.Context // nil once released
	done   chan struct{}
	err    error
}

// releasable returns a context attached to parent and the function that releases it.
func releasable(parent context.Context) (context.Context, func()) {
	c := &releasableContext{parent: parent, done: make(chan struct{})}
	stop := context.AfterFunc(parent, func() { c.end(parent.Err()) })
	return c, func() {
		stop()
		c.end(context.Canceled)
		c.mu.Lock()
		c.parent = nil
		c.mu.Unlock()
	}
}

// end makes the context done with err, once.
func (c *releasableContext) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
		close(c.done)
	}
}

func (c *releasableContext) attached() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.parent
}

func (c *releasableContext) Deadline() (time.Time, bool) {
	if p := c.attached(); p != nil {
		return p.Deadline()
	}
	return time.Time{}, false
}

func (c *releasableContext) Done() <-chan struct{} { return c.done }

func (c *releasableContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *releasableContext) Value(key any) any {
	if p := c.attached(); p != nil {
		return p.Value(key)
	}
	return nil
}

func (s releasingServer) GetMetadata(ctx context.Context, req *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	return released(ctx, req, s.fullServer.GetMetadata)
}

func (s releasingServer) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return released(ctx, req, s.fullServer.GetProviderSchema)
}

func (s releasingServer) GetResourceIdentitySchemas(ctx context.Context, req *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return released(ctx, req, s.fullServer.GetResourceIdentitySchemas)
}

func (s releasingServer) ValidateProviderConfig(ctx context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return released(ctx, req, s.fullServer.ValidateProviderConfig)
}

func (s releasingServer) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return released(ctx, req, s.fullServer.ConfigureProvider)
}

func (s releasingServer) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return released(ctx, req, s.fullServer.ValidateResourceConfig)
}

func (s releasingServer) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return released(ctx, req, s.fullServer.UpgradeResourceState)
}

func (s releasingServer) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return released(ctx, req, s.fullServer.UpgradeResourceIdentity)
}

func (s releasingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return released(ctx, req, s.fullServer.ReadResource)
}

func (s releasingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return released(ctx, req, s.fullServer.PlanResourceChange)
}

func (s releasingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return released(ctx, req, s.fullServer.ApplyResourceChange)
}

func (s releasingServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return released(ctx, req, s.fullServer.ImportResourceState)
}

func (s releasingServer) MoveResourceState(ctx context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return released(ctx, req, s.fullServer.MoveResourceState)
}

func (s releasingServer) GenerateResourceConfig(ctx context.Context, req *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return released(ctx, req, s.fullServer.GenerateResourceConfig)
}

func (s releasingServer) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return released(ctx, req, s.fullServer.ValidateDataResourceConfig)
}

func (s releasingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return released(ctx, req, s.fullServer.ReadDataSource)
}

func (s releasingServer) GetFunctions(ctx context.Context, req *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return released(ctx, req, s.fullServer.GetFunctions)
}

func (s releasingServer) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return released(ctx, req, s.fullServer.CallFunction)
}

func (s releasingServer) ValidateEphemeralResourceConfig(ctx context.Context, req *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return released(ctx, req, s.fullServer.ValidateEphemeralResourceConfig)
}

func (s releasingServer) OpenEphemeralResource(ctx context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return released(ctx, req, s.fullServer.OpenEphemeralResource)
}

func (s releasingServer) RenewEphemeralResource(ctx context.Context, req *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return released(ctx, req, s.fullServer.RenewEphemeralResource)
}

func (s releasingServer) CloseEphemeralResource(ctx context.Context, req *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return released(ctx, req, s.fullServer.CloseEphemeralResource)
}

func (s releasingServer) ValidateListResourceConfig(ctx context.Context, req *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	return released(ctx, req, s.fullServer.ValidateListResourceConfig)
}

func (s releasingServer) ValidateActionConfig(ctx context.Context, req *tfprotov6.ValidateActionConfigRequest) (*tfprotov6.ValidateActionConfigResponse, error) {
	return released(ctx, req, s.fullServer.ValidateActionConfig)
}

func (s releasingServer) PlanAction(ctx context.Context, req *tfprotov6.PlanActionRequest) (*tfprotov6.PlanActionResponse, error) {
	return released(ctx, req, s.fullServer.PlanAction)
}
