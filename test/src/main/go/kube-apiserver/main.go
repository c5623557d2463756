// Command kube-apiserver wraps the upstream kube-apiserver main package so that it can be
// built with `go build` from the published Go modules, for Kubeop's local control plane.
package main

import (
	"fmt"
	"os"
	"time"
	_ "time/tzdata"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	exitWithParent()
	os.Exit(cli.Run(app.NewAPIServerCommand()))
}

// exitWithParent ends the process when the test JVM that started it dies, even by SIGKILL,
// so that no orphaned kube-apiserver outlives an interrupted test run.
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
