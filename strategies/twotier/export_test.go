package twotier

// RandomProjects lets the external tests draw the same random project
// workloads as the internal ones.
var RandomProjects = randomProjects
