package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

func idResource(name, noun string, parts ...IDPart[*thingManager]) func() resource.Resource {
	typ := thingType()
	typ.Name = name
	typ.ImportID = ImportID[*thingManager]{Parts: parts, Example: "a/b", Noun: noun}
	return NewResource(typ)
}

// A form with one piece has no functions; one noun with two forms is a declaration error.
func TestIDFunctions(t *testing.T) {
	one := idResource("single", "", IDPart[*thingManager]{Attr: "name", Form: "<name>"})
	two := idResource("pair", "", IDPart[*thingManager]{Attr: "name", Form: "<system>"}, IDPart[*thingManager]{Attr: "flavor", Form: "<name>"})
	if got := len(IDFunctions([]func() resource.Resource{one, two})); got != 2 {
		t.Errorf("%d functions, want parse and build of the pair alone", got)
	}
	other := idResource("other", "pair", IDPart[*thingManager]{Attr: "name", Form: "<system>/<node>", Pieces: 2}, IDPart[*thingManager]{Attr: "flavor", Form: "<name>"})
	defer func() {
		if p := recover(); !strings.Contains(fmt.Sprint(p), `noun "pair"`) {
			t.Errorf("two forms of one noun: panic %v, want one naming the noun", p)
		}
	}()
	IDFunctions([]func() resource.Resource{two, other})
}
