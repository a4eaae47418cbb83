// Package models is the registry of synthetic workload models: the single
// entry point through which experiment specs and the CLI build a generated
// workload by name. It owns the SWF models every family shares (lublin99,
// fwload, jwload: OutputOf = SWF) and the Model type through which a
// family declares the models of its own platform, with an Output of its
// own, and generates their workloads itself from the decoded parameters
// (families/twotier's seed004 projects, families/cloud's seed001 cloud,
// families/stms's seed002 grid); this package knows none of them. The
// family catalog (families.Catalog.Models) gathers them all into one
// Registry:
//
//	src, info, err := cat.Models().New("lublin99", map[string]any{"jobs": 100000, "procs": 256}, rng)
//
// Parameters are declared with the one parameter model (param.Spec) and
// decoded by param.Decode: numbers may be int, int64 or float64 (integral
// floats are accepted for integer params). Unknown names and out-of-range
// values are reported together, each naming the field and the accepted
// range. Every SWF model accepts the common params (jobs, procs,
// load, load_method, estimates, max_estimate, est_bins); Specs lists them all
// with their defaults, ranges and meaning, and Describe renders that list as
// text. Check validates params, combinations included, without generating.
//
// New runs the model once to measure what it produces (offered load, the
// runtimes the Tsafrir estimates need) and returns a second, identical run as
// the Source: generation is deterministic given the seeds New draws from
// rng, so nothing but 16 bytes per job (when estimates are on) is held in
// memory. Info describes the result for the SWF header.
//
// The Tsafrir estimates are also offered for workloads that no model
// generates (real traces): AssignEstimates draws them for any runtimes with
// the generators' rules (automatic Tmax, user bins), EstimateNote words the
// header note, CheckEstimateBins and EstimateParams give the checks and
// documentation of max_estimate and est_bins. The "schedfarm workload
// estimates" command and trace cells of experiment specs
// (workload.user_estimates) use them.
package models
