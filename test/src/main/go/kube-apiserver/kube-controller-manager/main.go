// Command kube-controller-manager wraps the upstream kube-controller-manager main package so
// that it can be built with `go build` from the published Go modules, for Kubeop's local
// control plane. It lives in the kube-apiserver wrapper module so that both share one
// go.mod, one go.sum and one Go build cache.
package main

import (
	"fmt"
	"os"
	"time"
	_ "time/tzdata" // for CronJob time zones

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() {
	exitWithParent()
	os.Exit(cli.Run(app.NewControllerManagerCommand()))
}

// exitWithParent ends the process when the test JVM that started it dies, even by SIGKILL,
// so that no orphaned kube-controller-manager outlives an interrupted test run.
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
