// Package jsonappend appends JSON text for strings and numbers byte for byte
// as encoding/json.Marshal writes them, without reflection or allocation,
// for the farm's hot paths: a cell's parameters on the wire (runner.Param)
// and the arrays hashed into a cell's ID and seed (experiments.CellID,
// CellSeed), where the bytes must not change.
//
// It covers the common case only: String takes plain strings (ASCII from the
// space on, without the characters encoding/json escapes) and reports the rest,
// for which callers fall back to encoding/json, so the output never depends
// on a copy of its escaping rules. Float follows encoding/json's number
// format (ECMAScript's: shortest decimal, 'f' form for magnitudes in
// [1e-6, 1e21), else 'e' form without a leading zero in the exponent); the
// tests compare every function with json.Marshal.
package jsonappend
