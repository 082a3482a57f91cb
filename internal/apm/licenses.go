package apm

import "context"

// License is the license of one node (spec part 2).
type License struct {
	NodeName    string
	SystemName  string // beyond the spec: set only when the manager sends it
	LicenseType string
	ExpireDate  Timestamp // LayoutDate
	MaxCPU      int64
}

type wireLicense struct {
	NodeName    flexString `json:"nodeName"`
	SystemName  flexString `json:"systemName"`
	LicenseType flexString `json:"licenseType"`
	ExpireDate  flexString `json:"expireDate"`
	MaxCPU      flexInt    `json:"maxCpu"`
}

func (w wireLicense) license() License {
	return License{
		NodeName:    string(w.NodeName),
		SystemName:  string(w.SystemName),
		LicenseType: string(w.LicenseType),
		ExpireDate:  parseTimestamp(string(w.ExpireDate), LayoutDate),
		MaxCPU:      int64(w.MaxCPU),
	}
}

// ListLicenses returns the licenses of all nodes (GET /rest/licenses). The result is never
// nil.
func (c *Client) ListLicenses(ctx context.Context) ([]License, error) {
	return getList(ctx, c, "/rest/licenses", nil, "licenses", wireLicense.license)
}
