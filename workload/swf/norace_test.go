//go:build !race

package swf

// raceEnabled tells timing tests that the race detector slows everything.
const raceEnabled = false
