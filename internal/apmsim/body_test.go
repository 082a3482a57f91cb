package apmsim

import (
	"strings"
	"testing"
)

func TestRequestBodies(t *testing.T) {
	h := newTestSim(t).Handler()
	unsupported := errJSON("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json")
	bad := func(msg string) string { return errJSON("BAD_REQUEST", msg) }
	tests := []struct {
		name, contentType, body string
		status                  int
		want                    string
	}{
		{"no content type", "", `{"systemName":"a"}`, 415, unsupported},
		{"text/plain", "text/plain", `{"systemName":"a"}`, 415, unsupported},
		{"form", "application/x-www-form-urlencoded", `systemName=a`, 415, unsupported},
		{"garbled content type", "application/json; ===", `{"systemName":"a"}`, 415, unsupported},
		{"empty body", "application/json", ``, 400, bad("invalid JSON body: body is empty")},
		{"blank body", "application/json", "  \n", 400, bad("invalid JSON body: body is empty")},
		{"array", "application/json", `[{"systemName":"a"}]`, 400, bad("invalid JSON body: expected a JSON object")},
		{"string", "application/json", `"a"`, 400, bad("invalid JSON body: expected a JSON object")},
		{"syntax", "application/json", `{"systemName":}`, 400, bad("invalid JSON body: invalid character '}' looking for beginning of value")},
		{"truncated", "application/json", `{"systemName":"a"`, 400, bad("invalid JSON body: unexpected end of JSON input")},
		{"trailing data", "application/json", `{"systemName":"a"} {}`, 400, bad("invalid JSON body: unexpected data after the JSON object")},
		{"wrong type", "application/json", `{"systemName":["a"]}`, 400, bad("invalid JSON body: systemName must be a string, not array")},
		{"charset is fine", "application/json; charset=utf-8", `{"systemName":"a"}`, 200, actionY},
		{"+json is fine", "application/vnd.apm+json", `{"systemName":"b"}`, 200, actionY},
		{"unknown fields are ignored", "application/json", `{"systemName":"c","color":"red"}`, 200, actionY},
		{"surrounding space is fine", "application/json", " \n{\"systemName\":\"d\"}\n", 200, actionY},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, callCT(t, h, "POST", admin("/rest/systems"), tc.body, tc.contentType), tc.status, tc.want)
		})
	}
}

func TestBodyTooLarge(t *testing.T) {
	h := newTestSim(t).Handler()
	body := `{"systemName":"a","pad":"` + strings.Repeat("x", maxBodyBytes) + `"}`
	expect(t, call(t, h, "POST", admin("/rest/systems"), body), 413,
		errJSON("PAYLOAD_TOO_LARGE", "request body exceeds 1048576 bytes"))
}
