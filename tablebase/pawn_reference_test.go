package tablebase_test

import "testing"

func TestReferenceKPK(t *testing.T) {
	checkMaterial(t, "KPK")
}

func TestReferencePawnEndings(t *testing.T) {
	for _, m := range []string{"KPPK", "KBPK", "KNPK", "KQKP", "KRKP"} {
		t.Run(m, func(t *testing.T) { checkMaterial(t, m) })
	}
}
