package match

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOptionTypes: values are checked against both protocols'
// declarations as the engine would check them.
func TestOptionTypes(t *testing.T) {
	for _, c := range []struct {
		t         optionType
		good, bad []string
	}{
		{parseUCIOption("option name Hash type spin default 16 min 1 max 12052"), []string{"1", "12052"}, []string{"abc", "0", "12053", ""}},
		{parseUCIOption("option name Ponder type check default false"), []string{"true", "false"}, []string{"yes", "on"}},
		{parseUCIOption("option name Evaluation type combo default documents var documents var tuned"), []string{"tuned", "Documents"}, []string{"best"}},
		{parseUCIOption("option name UCI_Variant type combo default chess var chess var my variant"), []string{"my variant"}, []string{"my"}},
		{parseUCIOption("option name EvalFile type string default "), []string{"", "any thing"}, nil},
		{parseCECPOption("Hash -spin 16 1 12052"), []string{"16"}, []string{"99999"}},
		{parseCECPOption("Ponder -check 0"), []string{"true", "1", "0"}, []string{"maybe"}},
		{parseCECPOption("Evaluation -combo *documents /// tuned"), []string{"documents", "tuned"}, []string{"*documents"}},
		{parseCECPOption("VariantPath -string "), []string{"x.ini"}, nil},
	} {
		for _, v := range c.good {
			require.NoError(t, c.t.check(v), "%+v %q", c.t, v)
		}
		for _, v := range c.bad {
			require.Error(t, c.t.check(v), "%+v %q", c.t, v)
		}
	}
}

// TestCECPCheckValues: a check option goes to a CECP engine as 1 or 0.
func TestCECPCheckValues(t *testing.T) {
	check := parseCECPOption("Ponder -check 0")
	require.Equal(t, "1", check.cecpValue("true"))
	require.Equal(t, "0", check.cecpValue("0"))
	require.Equal(t, "tuned", parseCECPOption("Evaluation -combo *documents /// tuned").cecpValue("tuned"))
}
