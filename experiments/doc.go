// Package experiments turns a YAML experiment spec into cells: one cell per
// (grid point × scheduler × replication), each with a stable ID and a seed,
// and checks them — a spec when it is loaded, and a single cell a worker
// receives (CheckCell). It runs nothing: a cell is simulated by package
// runner (runner.Runner.RunCell).
//
// # Spec format
//
//	name: load-sweep                # letters, digits, '.', '_', '-'
//	platform:
//	  procs: 128                    # map of named platform parameters
//	workload:
//	  trace: data/kth.swf.gz        # SWF, plain or .gz; relative to the spec's directory
//	  estimates: user               # user | exact | pyss (default user)
//	  overrun: kill                 # kill | extend (default kill)
//	  load: 0.7                     # target offered load: interarrivals scaled (omit: as in the workload)
//	  jobs: 2000                    # simulate at most this many jobs (default all)
//	  warmup: 100                   # leading jobs left out of the metrics
//	  user_estimates: tsafrir05     # trace only: none | tsafrir05 (default none), see below
//	  max_estimate: 64800           #   Tsafrir Tmax, s (default 0: automatic)
//	  est_bins: "3600=30"           #   Tsafrir user bins, sec=percent[,…] (default none)
//	  # instead of trace: a workload/models generator, built per cell from its seed
//	  # generator: {model: lublin99, jobs: 10000, procs: 128, estimates: tsafrir05}
//	  #   Tsafrir user bins: est_bins: "3600=30,14400=10" (sec=percent; quote it inside {…})
//	schedulers:
//	  - fcfs
//	  - easy
//	  - {name: depth, params: {k: 4}}
//	  - {plugin: ./myeasy, params: {backfill: shortest}}   # a scheduler plugin, see below
//	axes:
//	  - param: workload.load
//	    values: [0.5, 0.7, 0.9]
//	  - param: scheduler.depth.k    # scheduler.<param> sweeps it for every scheduler
//	    range: {from: 1, to: 4, step: 1}   # both ends inclusive
//	    common_random_numbers: false       # true: leave this axis out of the cell seed
//	zip:                            # optional: axes that advance together
//	  - [workload.load, platform.procs]
//	replications: 5                 # default 1
//	more_replications:              # optional: more replications for some cells
//	  - where: {workload.load: 0.9, scheduler: easy}   # scheduler and full parameter names
//	    replications: 12            # replication indices 5…11 added there (PointReplications)
//	seed: 42                        # base seed, default 0
//	metrics: [wait_mean, bsld_mean] # columns to keep; default all
//	output: load-sweep.parquet      # default <name>.parquet
//	jobs_output: jobs.parquet       # optional per-job Parquet
//
// Project workloads: a generator whose model generates projects (seed004,
// Catalog.ModelOutput = "projects") brings its own platform (one pool
// per resource type) and takes its parameters under workload.generator
// only; platform, estimates, overrun, load, jobs, warmup and lenient are
// errors there, its schedulers are its family's (families/twotier), and
// the cells report the project metrics (pta, jta, …) besides the job ones:
//
//	workload:
//	  generator: {model: seed004, projects: 1000, high_priority: 0.2}
//	schedulers: [2tsb, {name: 2tpb, params: {sf: 0.5}}]
//	axes:
//	  - param: workload.generator.interarrival
//	    values: [10, 20, 40, 80, 160]
//	    common_random_numbers: true
//
// Modelled estimates for a trace: with user_estimates: tsafrir05 every cell
// replaces the requested time (SWF field 9) of each job it simulates by a
// Tsafrir, Etsion & Feitelson 2005 user runtime estimate (the jobs kept by
// jobs and with submit time, runtime and processors known; N of them, N >
// 226), drawn from the cell seed on a stream of its own
// (runner.EstimatesStream): replications draw different estimates, the
// schedulers of one grid point the same. Runtimes above Tmax are cut to it,
// as the model does. max_estimate is Tmax in seconds (0 or omitted:
// automatic, the longest runtime rounded up to whole hours, at least 7200 s,
// grown by 25% steps until feasible — the generators' rule); est_bins are
// the model's user-supplied bins (the generators' est_bins). The cached
// trace is not changed: each cell draws on its own copy. It needs estimates
// user (the default), which the cell then applies to the modelled times;
// the trace's own field 9 is not used. user_estimates, max_estimate and
// est_bins apply to trace workloads only (a generator has
// workload.generator.estimates, max_estimate and est_bins), and max_estimate
// and est_bins need user_estimates: tsafrir05 in some cell; an axis point
// with user_estimates: none ignores them. Validation checks these
// combinations for the fixed values and for each axis value against the
// fixed ones; two of them swept by two axes are checked when the cell runs
// (a bad pair fails that cell with the reason). "schedfarm workload
// estimates" writes the same kind of file once, for use outside a spec.
//
// Scheduler plugins: an entry {plugin: PATH, params: {…}, name: NAME,
// pass_timeout: 30s} runs the executable at PATH (relative to the spec's
// directory, like a trace) as an external scheduler (strategies/plugin).
// Validation starts it once to read its name and parameters and to hash
// it; params and axes (scheduler.<name>.<param>) are checked against the
// parameters it declares. name defaults to the plugin's own name and may
// not be a built-in scheduler's; pass_timeout (seconds or a duration)
// bounds each answer of the plugin. Plugins run on SWF workloads only
// (a trace or an SWF generator). The cell carries the path, the binary's
// SHA-256 and the timeout (runner.Cell.Plugin); a worker whose file at that path
// has another SHA-256 refuses the cell (it fails with the reason).
//
// Axis parameters are dotted paths: platform.<param>, workload.load,
// workload.jobs, workload.warmup, workload.estimates, workload.overrun,
// workload.trace, workload.user_estimates, workload.max_estimate,
// workload.est_bins, workload.generator.<param>, scheduler.<param> (every
// scheduler of the spec must accept it) and scheduler.<name>.<param> (only
// that scheduler; the others run once per remaining point). An axis replaces
// a fixed value of the same parameter. The grid is the cartesian product of
// the axes, a zip group counting as one axis.
//
// Paths: trace paths resolve against the spec file's directory, so a spec
// and its data travel together; output paths resolve against the working
// directory of the command, like any -o flag.
//
// # Validation
//
// Parse and Load decode strictly (unknown fields are errors) and validate the
// whole spec before returning, collecting every problem into a *SpecError.
// Each FieldError names the line, the field path and what would be accepted:
//
//	line 4: schedulers[2]: unknown scheduler "eazy"; known: cons, depth, easy, fcfs, sjbf
//	line 8: axes[0].values[3]: load must be > 0, got -0.5; accepted: a number > 0 (target offered load)
//
// Scheduler names and parameters, models, metrics and the families'
// workload fields are checked by a Catalog; NewCatalog wraps a family
// catalog (families.Catalog, built once by the caller). The spec's own
// platform and workload fields are runner.Fields, one table: each is
// checked by its param.Spec the same way (values.go), given once per cell
// under its dotted name, and decoded into the run by the same table.
//
// # Cells, IDs and seeds
//
// Spec.Cells expands the grid in a fixed order (replication, then grid point
// with the first axis slowest, then scheduler in spec order). runner.Cell.Params
// holds every resolved parameter under its dotted name, sorted by name:
// platform.*, workload.* (trace, estimates, overrun and, when given, load,
// jobs, warmup, user_estimates, max_estimate, est_bins, generator.*) and
// scheduler.*.
//
// The ID (CellID) is the first 16 hex digits of SHA-256 over a canonical
// JSON encoding of (experiment name, base seed, scheduler, replication,
// sorted [name, value] pairs); for a plugin the scheduler is
// "<name>@sha256:<hex SHA-256 of the binary>", so results of different
// builds never share an ID (resuming reruns the cells of a rebuilt plugin). The seed (CellSeed) is the first 8 bytes of
// SHA-256 over (experiment name, base seed, replication, sorted parameters
// without scheduler.* and without the parameters of axes marked
// common_random_numbers). Schedulers are left out of the seed on purpose: at
// one grid point and replication every scheduler sees the same random
// workload (common random numbers); an axis marked common_random_numbers
// extends that along the axis (every seed004 interarrival point then has the
// same projects and capacities, arrivals rescaled). Neither depends on axis order, YAML key order,
// cell index, worker count, time or map order; numbers are encoded by value,
// so 1 and 1.0 give the same ID.
//
// # Cells on the network
//
// A worker trusts no cell on the wire: CheckCell rebuilds the one-cell spec
// a cell would come from (its parameters as fixed values; the fields that
// combine, runner.Field.Joint, as one-value axes, as a sweep gives them),
// validates it with Parse against the worker's Catalog, expands it and
// requires the cell to be that spec's cell, ID and seed included.
//
// CellChecker (the worker's) does the same with a bounded cache (least
// recently used first out, DefaultCheckCacheSize points): the cells of one
// spec point differ only in replication, ID and seed, which validation of
// the one-cell spec never reads (it builds replication 0), so a point is
// validated once and remembered under the SHA-256 of an unambiguous
// encoding of every other field of the cell (experiment, base seed,
// scheduler, each parameter's name, kind and exact value, crn, dir,
// keep_jobs, the plugin's path, SHA-256 and pass timeout; a test fails
// when runner.Cell gains a field the key does not cover) and of what
// validation reads from outside the cell now (that each trace is there and
// no directory; the name and SHA-256 the catalog gives the plugin, which
// must be the cell's). Each cell still has its replication's range and its
// plugin fields checked and its ID and seed derived for its replication
// and compared. It does not trust the wire more: only a cell the full
// check admitted fills the cache; a cell whose key is missing (or cannot
// be computed) takes the full check; so a cell is refused from the cache
// only for its ID or seed, with CheckCell's error (tested cell by cell:
// TestCellCheckerHitRejectsForgedSiblings). The catalog must not change
// under a checker, plugins apart. With it a worker spends about 80 µs of
// CPU on an instant cell instead of 740 µs (worker/doc.go has the
// measurement). The example specs quickstart.yaml and load-sweep.yaml and the papers' figure
// specs (seed*-fig*.yaml) live next to this file.
package experiments
