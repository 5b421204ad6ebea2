package engine

import (
	"encoding/binary"
	"hash/fnv"
	"reflect"
	"slices"
	"strings"
)

// Fingerprint returns a digest of the variant's whole definition: its
// name, board, rules and pieces (every field of Rules, recursively). What
// was made for one definition, training data or a network, is not used
// with another: a piece that moves differently, a rule changed. Fields
// with their zero value are left out, so a rule added to the engine later
// does not change the fingerprints of what was made before it.
func (v *Variant) Fingerprint() uint64 {
	h := fnv.New64a()
	h.Write(appendDefinition(nil, reflect.ValueOf(v.Rules)))
	return h.Sum64()
}

// appendDefinition encodes a value of the definition's plain kinds:
// structs by their non-zero fields in name order, numbers, booleans,
// strings, arrays and slices, maps in key order, pointers. A function or
// channel, which no definition holds, is left out.
func appendDefinition(buf []byte, v reflect.Value) []byte {
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
	case reflect.Float32, reflect.Float64:
		return binary.LittleEndian.AppendUint64(buf, uint64(v.Float()*1e6))
	case reflect.String:
		return append(binary.AppendUvarint(buf, uint64(v.Len())), v.String()...)
	case reflect.Array, reflect.Slice:
		buf = binary.AppendUvarint(buf, uint64(v.Len()))
		for i := range v.Len() {
			buf = appendDefinition(buf, v.Index(i))
		}
		return buf
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			return slices.Compare(appendDefinition(nil, a), appendDefinition(nil, b))
		})
		buf = binary.AppendUvarint(buf, uint64(len(keys)))
		for _, k := range keys {
			buf = appendDefinition(appendDefinition(buf, k), v.MapIndex(k))
		}
		return buf
	case reflect.Pointer:
		if v.IsNil() {
			return append(buf, 0)
		}
		return appendDefinition(append(buf, 1), v.Elem())
	case reflect.Struct:
		t := v.Type()
		fields := make([]int, 0, t.NumField())
		for i := range t.NumField() {
			// A field tagged fingerprint:"-" is notation, not rules.
			if t.Field(i).IsExported() && !v.Field(i).IsZero() && t.Field(i).Tag.Get("fingerprint") != "-" {
				fields = append(fields, i)
			}
		}
		slices.SortFunc(fields, func(a, b int) int { return strings.Compare(t.Field(a).Name, t.Field(b).Name) })
		for _, i := range fields {
			name := t.Field(i).Name
			buf = append(binary.AppendUvarint(buf, uint64(len(name))), name...)
			buf = appendDefinition(buf, v.Field(i))
		}
		return binary.AppendUvarint(buf, 0) // the end of the struct
	}
	return buf
}
