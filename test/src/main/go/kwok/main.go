// Command kwok wraps the upstream kwok controller (sigs.k8s.io/kwok) so that it can be built
// with `go build` from the published Go modules, for Kubeop's local control plane. kwok plays
// the kubelet for nodes that exist only in the API server: with no stages configured it uses
// its default ones, so that managed nodes become Ready and their pods are scheduled, Running
// and Ready with container statuses, without a container runtime.
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/pflag"

	"sigs.k8s.io/kwok/pkg/config"
	"sigs.k8s.io/kwok/pkg/kwok/cmd"
	"sigs.k8s.io/kwok/pkg/log"
	"sigs.k8s.io/kwok/pkg/utils/signals"
)

func main() {
	exitWithParent()
	flagset := pflag.NewFlagSet("global", pflag.ContinueOnError)
	flagset.ParseErrorsWhitelist.UnknownFlags = true
	flagset.Usage = func() {}

	ctx := signals.SetupSignalContext()
	ctx, logger := log.InitFlags(ctx, flagset)

	ctx, err := config.InitFlags(ctx, flagset)
	if err != nil {
		_, _ = os.Stderr.Write([]byte(flagset.FlagUsages()))
		logger.Error("Init config flags", err)
		os.Exit(1)
	}

	command := cmd.NewCommand(ctx)
	command.PersistentFlags().AddFlagSet(flagset)
	if err := command.ExecuteContext(ctx); err != nil {
		logger.Error("Execute exit", err)
		os.Exit(1)
	}
}

// exitWithParent ends the process when the test JVM that started it dies, even by SIGKILL,
// so that no orphaned kwok outlives an interrupted test run.
func exitWithParent() {
	if os.Getenv("KUBEOP_EXIT_WITH_PARENT") != "true" {
		return
	}
	parent := os.Getppid()
	go func() {
		for range time.Tick(500 * time.Millisecond) {
			if os.Getppid() != parent {
				fmt.Fprintln(os.Stderr, "kubeop: parent process exited, stopping")
				os.Exit(2)
			}
		}
	}()
}
