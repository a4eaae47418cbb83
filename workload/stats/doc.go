// Package stats computes the descriptive statistics "schedfarm workload
// stats" prints for any SWF workload, in one streaming pass: the job-size
// histogram over seed 000's Table 1 bins, means, the offered load, the
// fraction of power-of-two sizes and the accuracy of user runtime estimates.
package stats
