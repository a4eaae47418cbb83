// Package runner is where cells run: a Runner (New, over one family
// catalog) turns a Cell — what spec expansion (package experiments) makes
// and a worker receives — into one simulation and its CellResult
// (RunCell). An SWF cell is decoded into a Config by the table of the
// spec's own fields (Fields, params.go: one declaration per field, its
// kind, check, doc and unit, and where it goes in the Config) and run by
// Run: read the trace (or take a generator's job stream), apply the
// runtime-estimate semantics, scale the load if asked, build the scheduler
// from the catalog's registry, run the engine and compute the metrics. The
// sim subcommand goes through Run too, so a cell and a command line give
// the same numbers. A cell of a model with a platform of its own goes to
// the family that owns it (family.PlatformRunner, as family.Cell). See
// README.md for the flow. The runner knows no family by name: a scheduler
// whose entry prepares its runs (strategies.Entry.Prepare: the VM-tier
// families' tiered platform and per-process CPU usage) does so between
// reading the jobs and building the scheduler (prepare.go), from the
// workload fields the families define (Config.FamilyFields, checked on
// every run by families.Catalog.CheckWorkloadFields).
//
// A scheduler that implements io.Closer (a plugin process,
// strategies/plugin) is closed when its run ends.
//
// Cells and results travel as JSON. EncodeCell and EncodeResult write what
// json.Marshal writes; DecodeCellWire and DecodeResultWire read that exact
// form and decode what a strict json.Decoder would (cellwire.go,
// resultwire.go). A Param has the same fast paths, and encoding/json takes
// anything they do not cover.
//
// # Estimate semantics
//
//	exact   estimate = runtime (SWF field 4)
//	user    estimate = requested time (field 9); a job without one uses its
//	        runtime (counted). When runtime > requested time the overrun
//	        policy decides:
//	          kill    the job is killed at its requested time
//	          extend  the estimate is raised to the runtime; never killed
//	pyss    the classic Python simulator pyss, reproduced from its
//	        _job_input_to_job: estimate = max(requested, runtime, 1) and
//	        actual runtime = max(min(requested, runtime), 1), both truncated
//	        to whole seconds; processors = allocated (field 5), at least 1,
//	        clamped to the machine size. A record with runtime ≤ 0, allocated
//	        processors ≤ 0 or submit < 0 runs 1 s with estimate 1 on
//	        max(1, allocated) processors, submitted at max(submit, 1) s (pyss
//	        keeps every record: its parse filter compares strings with
//	        integers, which Python 2 never finds true). The overrun policy
//	        does not apply.
//
// In the other modes a job whose runtime or processor count is unknown (−1)
// or not positive enough to simulate is dropped. Every dropped or altered job
// is counted in Adjustments — nothing is dropped silently.
//
// # Modelled user estimates
//
// With Config.UserEstimates "tsafrir05" a run first replaces the requested
// time of every job it will simulate (those MaxJobs keeps whose submit time,
// runtime and processor count are known; N of them, N > 226) by a Tsafrir,
// Etsion & Feitelson 2005 user runtime estimate (models.AssignEstimates:
// Config.MaxEstimate is Tmax, 0 for the generators' automatic rule;
// Config.EstBins the user bins), capping runtimes above Tmax as the model
// does, and then applies the user semantics to them (it requires Estimates
// "user"; with every estimate at least its runtime no job is killed). The
// estimates draw from PCG(Config.Seed, EstimatesStream), a stream no other
// use of the seed shares, so equal seeds give equal estimates. They are
// drawn before the load scaling, which moves submit times only, so the
// load factor counts the capped runtimes. The work is on the run's own copy
// of the records; a cached trace is never changed. The cost is a radix sort
// and a few arrays of N numbers (runtimes, estimates and the model's
// working arrays), nothing when UserEstimates is off. Result.Estimates
// reports N, Tmax, the capped runtimes and the jobs at Tmax.
//
// # Trace cache
//
// A process keeps the traces it has parsed (swf.Cache, at most
// TraceCacheBytes of jobs), so a worker running the cells of a sweep over one
// trace decompresses and parses it once, not once per cell. Every run still
// reads the file to hash it: a trace is served from memory only when its
// path, size, modification time and SHA-256 all match, so an edited file is
// parsed again. The cached jobs are shared and never modified; each run
// copies the ones it uses and scales or filters its copy. A file the cache
// cannot hold (missing, malformed in strict mode, or more than
// TraceCacheBytes of jobs) is read by the streaming reader as before, which
// reports any problem; results are the same with or without the cache.
//
// Likewise the workloads a cell's generator model makes (generated.go, at
// most GeneratedCacheBytes of jobs): the cells of one grid point and
// replication share their workload (common random numbers), so the first
// generates it and the others copy it. A workload is keyed by the catalog's
// model registry, the model, the cell's generator parameters with their
// exact values and the cell seed — all the model is given. A runner
// WithoutTraceCache (`schedfarm sim`) streams the model's jobs as before
// (TestGeneratedCacheGivesTheSameCells compares the two).
//
// # One-shot runs
//
// A runner WithoutTraceCache runs one trace once (`schedfarm sim`), so it
// uses every core for what a sweep's cells would otherwise share.
//
// A trace file of 64 KB or more, plain or gzip, is simulated while it is
// still being read (runPiped, when pipes allows it: no MaxJobs, load
// scaling, modelled estimates or prepared scheduler, a machine size from
// the flag or the header): one goroutine parses the file in pieces of
// about 64 KB of text (swf.ReadPieces) and converts each piece's records,
// while the calling goroutine simulates the jobs handed over so far. The engine gets the
// jobs in the order of the usual path, pyss's one-second records sorted as
// sortBySubmit sorts them; anything the pipe cannot promise to do alike
// (a malformed line, a job back in time after the first piece, …) makes it
// give up, and the run is done the usual way (TestPipedRunIsTheRun). A
// runner also WithoutRecords (`schedfarm sim` without --schedule) keeps no
// SWF records: each piece is parsed into the same buffer
// (swf.ReadPiecesOnce), which spares the page faults of a slab for the
// whole file. The job slab of a plain file, which the conversion fills
// whole, has its pages backed in one call on a goroutine of its own
// (prefaultSlab, package prefault) rather than a page fault at a time; a
// gzip file's slab, sized by a guess (the swf.Room the reader hands over
// is not exact), is left to fault in as it is written.
//
// Otherwise a plain trace is mapped and parsed in parts (swf.ReadParts),
// and its records are converted into jobs in as many stretches at once
// (convertRecords, each of at least convertPartMin records), with the same
// jobs, order and counts as one converter record by record. Cells of a
// sweep convert in one stretch: their process already runs a cell on every
// core.
//
// Either way, the finished run's aggregates take a second core too
// (sim.MetricOptions.Concurrent: the slowdowns' distributions on a
// goroutine of their own), with the Summary the one goroutine gives.
package runner
