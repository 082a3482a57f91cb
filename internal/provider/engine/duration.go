package engine

import (
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// DurationValidator accepts a Go duration such as "30s" from least to most: the provider's
// request_timeout and the timeout of the actions.
func DurationValidator(least, most time.Duration) validator.String {
	rule := fmt.Sprintf(`value must be a duration from %s to %s, such as "30s", "1m30s" or "2m"`, FormatDuration(least), FormatDuration(most))
	return StringCheck(rule, func(attr path.Path, raw string) (string, string) {
		if d, err := time.ParseDuration(raw); err != nil || d < least || d > most {
			return "Invalid duration", fmt.Sprintf("Attribute %s %s, got: %q.", attr, rule, raw)
		}
		return "", ""
	})
}
