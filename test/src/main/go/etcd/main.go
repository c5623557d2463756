// Command etcd wraps the upstream etcd server main package so that it can be built with
// `go build` from the published Go modules, for Kubeop's local control plane.
package main

import (
	"fmt"
	"os"
	"time"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	exitWithParent()
	etcdmain.Main(os.Args)
}

// exitWithParent ends the process when the test JVM that started it dies, even by SIGKILL,
// so that no orphaned etcd outlives an interrupted test run.
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
