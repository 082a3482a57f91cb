package apm

import (
	"context"
	"testing"
	"time"
)

func TestListLicenses(t *testing.T) {
	runCallCases(t, licenseCalls())
}

// licenseCalls are the reads of licenses; TestCoverageClientCallsSendTheirEndpoint runs them
// too.
func licenseCalls() []callCase {
	return []callCase{
		{"ListLicenses", func(ctx context.Context, c *Client) (any, error) { return c.ListLicenses(ctx) }, "/rest/licenses",
			`{"licenses":[{"nodeName":"n1","systemName":"shop","licenseType":"Enterprise","expireDate":"2025-05-06","maxCpu":"32"},` +
				`{"nodeName":"n2","licenseType":"Trial","expireDate":"20240429","maxCpu":4},{"nodeName":"n3","expireDate":"never"}]}`,
			[]License{
				{NodeName: "n1", SystemName: "shop", LicenseType: "Enterprise", ExpireDate: Timestamp{Raw: "2025-05-06", Time: time.Date(2025, 5, 6, 0, 0, 0, 0, time.UTC)}, MaxCPU: 32},
				{NodeName: "n2", LicenseType: "Trial", ExpireDate: Timestamp{Raw: "20240429", Time: time.Date(2024, 4, 29, 0, 0, 0, 0, time.UTC)}, MaxCPU: 4},
				{NodeName: "n3", ExpireDate: Timestamp{Raw: "never"}},
			}},
		{"ListLicenses bare array", func(ctx context.Context, c *Client) (any, error) { return c.ListLicenses(ctx) }, "/rest/licenses",
			`[]`, []License{}},
	}
}
