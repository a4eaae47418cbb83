// Package swf reads and writes workloads in the Standard Workload Format
// (SWF 2.2) of the Parallel Workloads Archive, plain or gzip-compressed.
//
// # File layout
//
// An SWF file is a sequence of lines. A line whose first non-blank character
// is ';' is a comment; comments of the form "; Keyword: value" are header
// fields (see [Header]). Blank lines are ignored. Every other line is one job:
// exactly 18 whitespace-separated decimal numbers, −1 meaning "unknown". Lines
// may end in "\n" or "\r\n"; trailing blanks are ignored.
//
// # What the reader accepts
//
// A job line is accepted when all of the following hold; otherwise the reader
// returns a [*LineError] naming the file, the line, and (when one field is at
// fault) the field number and name, plus what would have been accepted:
//
//   - it has exactly 18 fields;
//   - every field is a decimal number ("12", "-1", "3.25", "1e3", "5.0");
//     hexadecimal, NaN and infinities are rejected;
//   - the integer fields (1 job number, 5 allocated processors, 8 requested
//     processors, 11 status, 12 user, 13 group, 14 executable, 15 queue,
//     16 partition, 17 preceding job) hold whole numbers that fit in an
//     int64 ("5.0" is read as 5, "5.5" is an error);
//   - no field is negative unless it is exactly −1 ("unknown");
//   - the submit time (field 2) is not earlier than the submit time of the
//     previous accepted job whose submit time was known: files are sorted by
//     submit time, and a [workload.Source] promises submit order;
//   - the line is at most [MaxLineLength] bytes long.
//
// The reader does not check anything else (for example that job numbers are
// consecutive, that status is one of the documented codes, or that the
// processor counts fit the machine): such files are legal SWF and the checks
// belong to whoever interprets the values.
//
// A numeric header field (MaxProcs, MaxJobs, UnixStartTime, ...) whose value
// is neither empty nor starts with an integer is also an error, reported with
// its line; text after the integer is allowed ("128 (in 16 nodes)").
//
// In strict mode (the default) the first error stops the reader: Next returns
// it, and keeps returning it. With [Options].Lenient the offending line is
// skipped instead, and counted; [Reader.SkipCount] and [Reader.Skipped] report
// what was skipped, so nothing is dropped silently. I/O and decompression
// errors always stop the reader.
//
// # Limits
//
// A Reader stops with an error wrapping [ErrLimit] (a [*LimitError] inside
// the [*LineError] naming the file and line) once it has read more than
// [Limits].MaxBytes of SWF text (after decompression: a gzip bomb is stopped
// by what it expands to, not by its size on disk) or accepted more than
// [Limits].MaxJobs jobs. The defaults, [DefaultMaxBytes] (2 GiB) and
// [DefaultMaxJobs] (10,000,000), are far above any log of the Parallel
// Workloads Archive; a process changes them with [SetDefaultLimits] (the
// schedfarm commands' --max-trace-bytes and --max-trace-jobs), a caller per
// reader with [Options].Limits. Lines longer than [MaxLineLength] and
// comments beyond [MaxHeaderBytes] are bounded as described above.
//
// # What the writer produces
//
// [Writer] writes the header entries in their stored order, then one line per
// job with the 18 fields separated by single spaces. Integer fields are
// printed as integers. A float field that holds a whole number is printed as
// an integer too ("3600", never "3600.0"), so whole numbers round-trip
// exactly; any other value is rounded to two decimals and printed without
// trailing zeros ("0.5", "12.25"). The writer refuses (with an error, before
// writing anything for that job) the jobs the reader would refuse: NaN,
// infinities, negative values other than −1, and decreasing submit times.
package swf
