package apm

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Sub-operations that only WAS servers have (spec 4.2). Each takes a ServerRef whose Kind
// is KindWAS or empty (meaning WAS).

// SessionCluster is a WAS server's session clustering set-up (api/decisions.md, assumption).
type SessionCluster struct {
	PrimaryHost   string
	PrimaryPort   int64
	SecondaryHost string // optional
	SecondaryPort int64  // optional
}

// ImportedResource is a resource of the manager imported into a WAS server.
type ImportedResource struct {
	ResourceType ResourceType
	ResourceName string
}

// ResourceType is a kind of resource a WAS server can import.
type ResourceType string

const (
	ResourceDatasource  ResourceType = "datasource"
	ResourceApplication ResourceType = "application"
	ResourceJMS         ResourceType = "jms"
	ResourceJTA         ResourceType = "jta"
)

// ParseResourceType accepts the four types in any case (JMS, jms, ...).
func ParseResourceType(s string) (ResourceType, error) {
	t := ResourceType(strings.ToLower(strings.TrimSpace(s)))
	switch t {
	case ResourceDatasource, ResourceApplication, ResourceJMS, ResourceJTA:
		return t, nil
	}
	return "", fmt.Errorf("apm: unknown resource type %q (want datasource, application, jms or jta)", shorten(s))
}

// Deployment is the body of an application deploy.
type Deployment struct {
	ContextPath     string // required, e.g. "/shop"
	SourcePath      string // required: path of the archive on the node
	ApplicationName string // optional
}

// ApplicationStatus is an element of a WAS server's application statuses.
type ApplicationStatus struct {
	ContextPath, Status string
	Sessions            int64
}

type wireSessionCluster struct {
	PrimaryHost   flexString `json:"primaryHost"`
	PrimaryPort   flexInt    `json:"primaryPort"`
	SecondaryHost flexString `json:"secondaryHost"`
	SecondaryPort flexInt    `json:"secondaryPort"`
}

func (w wireSessionCluster) cluster() SessionCluster {
	return SessionCluster{
		PrimaryHost: string(w.PrimaryHost), PrimaryPort: int64(w.PrimaryPort),
		SecondaryHost: string(w.SecondaryHost), SecondaryPort: int64(w.SecondaryPort),
	}
}

type wireImported struct {
	ResourceType flexString `json:"resourceType"`
	ResourceName flexString `json:"resourceName"`
}

func (w wireImported) resource() ImportedResource {
	t, err := ParseResourceType(string(w.ResourceType))
	if err != nil {
		t = ResourceType(w.ResourceType) // keep an unknown type as sent
	}
	return ImportedResource{ResourceType: t, ResourceName: string(w.ResourceName)}
}

type wireApplication struct {
	ContextPath flexString `json:"contextPath"`
	Status      flexString `json:"status"`
	Sessions    flexInt    `json:"sessions"`
}

func (w wireApplication) status() ApplicationStatus {
	return ApplicationStatus{ContextPath: string(w.ContextPath), Status: string(w.Status), Sessions: int64(w.Sessions)}
}

type sessionClusterBody struct {
	PrimaryHost   string `json:"primaryHost"`
	PrimaryPort   int64  `json:"primaryPort"`
	SecondaryHost string `json:"secondaryHost,omitempty"`
	SecondaryPort int64  `json:"secondaryPort,omitempty"`
}

// SetSessionCluster sets up (or replaces) session clustering (POST .../session).
func (c *Client) SetSessionCluster(ctx context.Context, ref ServerRef, sc SessionCluster) error {
	return c.subSend(ctx, KindWAS, http.MethodPost, ref, "/session", nil, sessionClusterBody(sc))
}

// RemoveSessionCluster removes session clustering (DELETE .../session). A server without
// one gives a 404 (IsNotFound).
func (c *Client) RemoveSessionCluster(ctx context.Context, ref ServerRef) error {
	return c.subSend(ctx, KindWAS, http.MethodDelete, ref, "/session", nil, nil)
}

type resourceNameBody struct {
	ResourceName string `json:"resourceName"`
}

// AttachDatasource connects a datasource resource to the server (POST .../datasource).
func (c *Client) AttachDatasource(ctx context.Context, ref ServerRef, resourceName string) error {
	return c.subSend(ctx, KindWAS, http.MethodPost, ref, "/datasource", nil, resourceNameBody{resourceName})
}

// DetachDatasource disconnects a datasource (DELETE .../datasource?resourceName=).
func (c *Client) DetachDatasource(ctx context.Context, ref ServerRef, resourceName string) error {
	return c.subSend(ctx, KindWAS, http.MethodDelete, ref, "/datasource", url.Values{"resourceName": {resourceName}}, nil, about(resourceName))
}

type deploymentBody struct {
	ContextPath     string `json:"contextPath"`
	SourcePath      string `json:"sourcePath"`
	ApplicationName string `json:"applicationName,omitempty"`
}

// DeployApplication deploys an application archive (POST .../application). A context
// path already deployed gives a 409 (IsConflict).
func (c *Client) DeployApplication(ctx context.Context, ref ServerRef, d Deployment) error {
	return c.subSend(ctx, KindWAS, http.MethodPost, ref, "/application", nil, deploymentBody(d))
}

// UndeployApplication removes an application (DELETE .../application?contextPath=).
func (c *Client) UndeployApplication(ctx context.Context, ref ServerRef, contextPath string) error {
	return c.subSend(ctx, KindWAS, http.MethodDelete, ref, "/application", url.Values{"contextPath": {contextPath}}, nil, about(contextPath))
}

// ApplicationStatuses returns the deployed applications with their status and session
// count (GET .../applications/status). The result is never nil.
func (c *Client) ApplicationStatuses(ctx context.Context, ref ServerRef) ([]ApplicationStatus, error) {
	path, err := ref.subPath(KindWAS, "/applications/status")
	if err != nil {
		return nil, err
	}
	return getList(ctx, c, path, nil, "applications", wireApplication.status, about(ref.ServerID))
}

type importBody struct {
	ResourceType ResourceType `json:"resourceType"`
	ResourceName string       `json:"resourceName"`
}

// ImportResource imports a resource registered in the manager into the server (POST
// .../resource). The manager has no inverse operation (api/decisions.md).
func (c *Client) ImportResource(ctx context.Context, ref ServerRef, resourceType ResourceType, resourceName string) error {
	t, err := ParseResourceType(string(resourceType))
	if err != nil {
		return err
	}
	return c.subSend(ctx, KindWAS, http.MethodPost, ref, "/resource", nil, importBody{t, resourceName})
}
