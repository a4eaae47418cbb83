// Package sdk writes schedfarm scheduler plugins in Go: a Plugin value (name,
// parameters, pass mode, constructor) and Serve, which speaks the protocol
// of strategies/plugin/schedulerpb/scheduler.proto and go-plugin's
// handshake. A Scheduler sees a Cluster that the SDK keeps up to date from
// the changes schedfarm sends (arrivals, ends): the time, the free units,
// the waiting and running jobs; it acts with Start, StartOn, Reject,
// Reserve and WakeAt, which take effect in the view at once and are sent
// back when Pass returns. The SDK refuses actions that schedfarm would
// reject (a job that is not waiting, a start that does not fit), and
// checks at every pass that its view agrees with schedfarm's counts.
//
// FCFS as a plugin:
//
//	func main() {
//		sdk.Serve(sdk.Plugin{
//			Name: "my-fcfs", Summary: "first come, first served",
//			PassMode: sdk.WhenStartable,
//			New: func(sdk.Run) (sdk.Scheduler, error) { return fcfs{}, nil },
//		})
//	}
//
//	type fcfs struct{}
//
//	func (fcfs) Pass(c *sdk.Cluster) error {
//		for _, j := range c.Queue() {
//			if !c.Fits(j) {
//				return nil
//			}
//			if err := c.Start(j); err != nil {
//				return err
//			}
//		}
//		return nil
//	}
//
// examples/plugins/easy is EASY backfilling in about a page. Build with
// go build and run with schedfarm sim --plugin ./my-fcfs or a spec entry
// {plugin: ./my-fcfs}. The process's stderr goes to schedfarm, which
// quotes its last lines when a run fails; by default the plugin runs with
// GOMAXPROCS 1 (Plugin.Procs).
package sdk
