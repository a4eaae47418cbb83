package lazyre

import "testing"

func TestCompiledOnFirstUse(t *testing.T) {
	re := MustCompile(`^line (\d+): (.*)$`)
	if !re.MatchString("line 3: bad") || re.MatchString("nope") {
		t.Fatal("MatchString disagrees with regexp")
	}
	if m := re.FindStringSubmatch("line 12: x y"); len(m) != 3 || m[1] != "12" || m[2] != "x y" {
		t.Fatalf("FindStringSubmatch: %q", m)
	}
	if m := re.FindSubmatch([]byte("line 4: z")); len(m) != 3 || string(m[1]) != "4" {
		t.Fatalf("FindSubmatch: %q", m)
	}
}

func TestInvalidPanicsOnFirstUse(t *testing.T) {
	re := MustCompile(`(`) // no panic yet
	defer func() {
		if recover() == nil {
			t.Fatal("an invalid expression did not panic when first used")
		}
	}()
	re.MatchString("x")
}
