package tablebase

import (
	"encoding/binary"
	"hash/fnv"
	"reflect"
	"slices"

	"github.com/chimera-chess/chimera/engine"
)

// tableSemantics names what a table's values mean and how they were made.
// It is part of every fingerprint: a change to the generator that changes
// values (a bug fixed, a rule modelled differently) changes it, and every
// table made before is rebuilt rather than trusted.
const tableSemantics = "chimera: distance to mate, captures and promotions through smaller tables, 1"

// Fingerprint returns a digest of everything in a variant that a material's
// table depends on: the board, the rules (every field rules.go does not
// classify as unused), and the movement of every piece the table holds or
// promotes to. Two definitions with the same fingerprint give the same
// table; a file whose fingerprint differs from the variant's is never used.
// Fields with their zero value are left out, so a rule added to the
// engine later does not change the fingerprints of tables made before it.
func Fingerprint(v *engine.Variant, m Material) uint64 {
	h := fnv.New64a()
	var buf []byte
	buf = appendString(buf, tableSemantics)
	buf = appendFields(buf, reflect.ValueOf(v.Rules), ruleFields(), "Pieces")
	pieces := materialTypes(v, m)
	slices.SortFunc(pieces, func(a, b *engine.PieceType) int { return int(a.Letter) - int(b.Letter) })
	for _, pt := range pieces {
		buf = appendString(buf, "piece")
		buf = appendFields(buf, reflect.ValueOf(*pt), pieceFields(), "")
	}
	h.Write(buf)
	return h.Sum64()
}

// appendFields encodes a rule struct's fields that are not zero and not
// unused, in name order (embedded structs flattened), leaving out skip.
// Refused fields count too: a field refused but for some values (an
// atom's kind: leap or ride) is modelled at those values, and a refusal
// that holds only for some pieces (optional promotion) is a constant of
// the variant for the others.
func appendFields(buf []byte, val reflect.Value, fields map[string]field, skip string) []byte {
	type named struct {
		name string
		v    reflect.Value
	}
	var list []named
	var walk func(val reflect.Value)
	walk = func(val reflect.Value) {
		t := val.Type()
		for i := range t.NumField() {
			sf, f := t.Field(i), val.Field(i)
			switch {
			case sf.Anonymous && sf.Type.Kind() == reflect.Struct:
				walk(f)
			case sf.Name != skip && fields[sf.Name].use != unused && !f.IsZero():
				list = append(list, named{sf.Name, f})
			}
		}
	}
	walk(val)
	slices.SortFunc(list, func(a, b named) int {
		switch {
		case a.name < b.name:
			return -1
		case a.name > b.name:
			return 1
		}
		return 0
	})
	for _, n := range list {
		buf = appendString(buf, n.name)
		if n.name == "Atoms" {
			// Atoms are rule structs of their own: their modelled fields.
			buf = binary.AppendUvarint(buf, uint64(n.v.Len()))
			for i := range n.v.Len() {
				buf = appendFields(buf, n.v.Index(i), atomFields(), "")
			}
			continue
		}
		buf = appendValue(buf, n.v)
	}
	return binary.AppendUvarint(buf, 0) // the end of the struct
}

// appendValue encodes a value of the rule structs' plain kinds: numbers,
// booleans, strings, and arrays, slices, maps (in key order), structs and
// pointers of them.
func appendValue(buf []byte, v reflect.Value) []byte {
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			return append(buf, 1)
		}
		return append(buf, 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(buf, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return binary.AppendUvarint(buf, v.Uint())
	case reflect.String:
		return appendString(buf, v.String())
	case reflect.Array, reflect.Slice:
		buf = binary.AppendUvarint(buf, uint64(v.Len()))
		for i := range v.Len() {
			buf = appendValue(buf, v.Index(i))
		}
		return buf
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			return slices.Compare(appendValue(nil, a), appendValue(nil, b))
		})
		buf = binary.AppendUvarint(buf, uint64(len(keys)))
		for _, k := range keys {
			buf = appendValue(appendValue(buf, k), v.MapIndex(k))
		}
		return buf
	case reflect.Pointer:
		if v.IsNil() {
			return append(buf, 0)
		}
		return appendValue(append(buf, 1), v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			buf = appendValue(buf, v.Field(i))
		}
		return buf
	}
	// Only a rule field of a kind no rule struct has (a function or a
	// channel) gets here: a programming error, which TestFingerprint's
	// walk over every variant's tables finds. Encoding less would let a
	// change of it go unseen, and a stale table be trusted.
	panic("tablebase: cannot fingerprint a " + v.Type().String())
}

func appendString(buf []byte, s string) []byte {
	return append(binary.AppendUvarint(buf, uint64(len(s))), s...)
}
