// Package wire decodes the farm's JSON messages strictly: a size bound,
// valid UTF-8, exactly one JSON object with known fields only. The worker
// decodes cells and the coordinator results through it; what the values
// must be is each side's own check.
package wire
