package numeric

import "testing"

func TestFloat(t *testing.T) {
	for _, v := range []any{int(3), int8(3), int16(3), int32(3), int64(3), uint(3), uint8(3), uint16(3), uint32(3), uint64(3), float32(3), float64(3)} {
		if f, ok := Float(v); !ok || f != 3 {
			t.Errorf("%T: %g %v", v, f, ok)
		}
	}
	for _, v := range []any{"3", nil, true, []int{3}} {
		if _, ok := Float(v); ok {
			t.Errorf("%T accepted", v)
		}
	}
}
