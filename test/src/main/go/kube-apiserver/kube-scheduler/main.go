// Command kube-scheduler wraps the upstream kube-scheduler main package so that it can be
// built with `go build` from the published Go modules, for Kubeop's local control plane. It
// lives in the kube-apiserver wrapper module so that both share one go.mod, one go.sum and
// one Go build cache.
package main

import (
	"fmt"
	"os"
	"time"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-scheduler/app"
)

func main() {
	exitWithParent()
	os.Exit(cli.Run(app.NewSchedulerCommand()))
}

// exitWithParent ends the process when the test JVM that started it dies, even by SIGKILL,
// so that no orphaned kube-scheduler outlives an interrupted test run.
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
