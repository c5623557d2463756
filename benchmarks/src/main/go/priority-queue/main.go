// Command priority-queue measures controller-runtime's priority queue in the scenario of
// Kubeop's QueueOrderBenchmark "backlog": a controller starts over the N ConfigMaps of one
// namespace (every one queued by the initial list, at low priority with the priority
// queue), and a new ConfigMap is created as soon as its workers run; the time from the
// API server's answer to that create to the reconciler's first call for it is taken.
//
// The controller is controller-runtime's own, built with its builder as a user would:
// For(&corev1.ConfigMap{}), the manager's cache restricted to the namespace,
// -workers reconcilers (MaxConcurrentReconciles) that each sleep -handler-ms per call.
// -priority-queue=false runs the same controller on client-go's FIFO work queue instead
// (controller-runtime before 0.23). The workers are known to run at the reconciler's first
// call; the object is created then, by a client of its own (not the manager's cache).
//
// Prints one JSON line: secondsFromCreateToCall, callsBefore (reconciler calls from the
// create to the object's call), and the Go runtime's settings.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/log"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func main() {
	namespace := flag.String("namespace", "", "namespace of the ConfigMaps")
	name := flag.String("name", "", "name of the ConfigMap to create")
	workers := flag.Int("workers", 1, "reconcilers running at once")
	handlerMillis := flag.Int("handler-ms", 5, "how long each reconciler call sleeps")
	usePriorityQueue := flag.Bool("priority-queue", true, "controller-runtime's priority queue (its default since 0.23)")
	timeout := flag.Duration("timeout", 15*time.Minute, "give up after this long")
	// -kubeconfig is controller-runtime's own flag (pkg/client/config registers it)
	flag.Parse()
	log.SetLogger(logr.Discard())

	config, err := clientcmd.BuildConfigFromFlags("", flag.Lookup("kubeconfig").Value.String())
	check(err)
	// the harness's writers are not measured; the controller's own client must not be
	// throttled by client-go's default 5 requests per second either
	config.QPS = 1000
	config.Burst = 2000
	manager, err := ctrl.NewManager(config, ctrl.Options{
		Scheme:                 clientgoscheme.Scheme,
		Cache:                  cache.Options{DefaultNamespaces: map[string]cache.Config{*namespace: {}}},
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	check(err)

	var calls atomic.Int64
	started := make(chan struct{})
	var startOnce sync.Once
	var callOnce sync.Once
	called := make(chan int64, 1)
	var callsAtCreate, callsBefore atomic.Int64
	handler := time.Duration(*handlerMillis) * time.Millisecond
	reconciler := reconcile.Func(func(ctx context.Context, request reconcile.Request) (reconcile.Result, error) {
		now := time.Now().UnixNano()
		count := calls.Add(1)
		startOnce.Do(func() { close(started) })
		if request.Name == *name {
			callOnce.Do(func() {
				called <- now
				callsBefore.Store(count - 1 - callsAtCreate.Load())
			})
		}
		time.Sleep(handler)
		return reconcile.Result{}, nil
	})
	check(ctrl.NewControllerManagedBy(manager).
		Named("ordered").
		For(&corev1.ConfigMap{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: *workers, UsePriorityQueue: usePriorityQueue}).
		Complete(reconciler))

	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	go func() {
		check(manager.Start(ctx))
	}()
	select {
	case <-started:
	case <-ctx.Done():
		check(fmt.Errorf("the controller never called its reconciler"))
	}

	writer, err := client.New(config, client.Options{Scheme: clientgoscheme.Scheme})
	check(err)
	object := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: *name, Namespace: *namespace},
		Data: map[string]string{"value": "0"}}
	callsAtCreate.Store(calls.Load())
	check(writer.Create(ctx, object))
	created := time.Now().UnixNano()

	var call int64
	select {
	case call = <-called:
	case <-ctx.Done():
		check(fmt.Errorf("%s was never reconciled", *name))
	}
	check(json.NewEncoder(os.Stdout).Encode(map[string]any{
		"secondsFromCreateToCall": float64(call-created) / 1e9,
		"callsBefore":             callsBefore.Load(),
		"goVersion":               runtime.Version(), "gomaxprocs": runtime.GOMAXPROCS(0), "gogc": os.Getenv("GOGC"),
	}))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
