package main

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// many is -mode many: twenty informers of one factory over the whole cluster (no
// namespace, no transform, no resync), the built-in kinds an operator commonly watches,
// the same twenty the Java harness starts. Time from starting the factory until every
// informer's HasSynced is true, polled every millisecond; then the live goroutines, the
// process's OS threads, heap after GC and VmRSS. Prints one JSON line.
func many(client kubernetes.Interface) {
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0)
	all := []cache.SharedIndexInformer{
		factory.Core().V1().Pods().Informer(),
		factory.Core().V1().Services().Informer(),
		factory.Core().V1().ConfigMaps().Informer(),
		factory.Core().V1().Secrets().Informer(),
		factory.Core().V1().ServiceAccounts().Informer(),
		factory.Core().V1().Namespaces().Informer(),
		factory.Core().V1().Nodes().Informer(),
		factory.Core().V1().PersistentVolumeClaims().Informer(),
		factory.Core().V1().PersistentVolumes().Informer(),
		factory.Core().V1().ResourceQuotas().Informer(),
		factory.Core().V1().LimitRanges().Informer(),
		factory.Apps().V1().Deployments().Informer(),
		factory.Apps().V1().ReplicaSets().Informer(),
		factory.Apps().V1().StatefulSets().Informer(),
		factory.Apps().V1().DaemonSets().Informer(),
		factory.Batch().V1().Jobs().Informer(),
		factory.Batch().V1().CronJobs().Informer(),
		factory.Networking().V1().Ingresses().Informer(),
		factory.Discovery().V1().EndpointSlices().Informer(),
		factory.Policy().V1().PodDisruptionBudgets().Informer(),
	}
	for _, informer := range all {
		if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(interface{}) {}}); err != nil {
			fail(err)
		}
	}
	stop := make(chan struct{})
	start := time.Now()
	factory.Start(stop)
	for !allSynced(all) {
		time.Sleep(time.Millisecond)
	}
	synced := time.Since(start)
	heap := heapAfterGC()
	objects := 0
	for _, informer := range all {
		objects += len(informer.GetStore().List())
	}
	emit(map[string]interface{}{"syncMillis": float64(synced.Microseconds()) / 1000, "objects": objects,
		"informers": len(all), "threads": runtime.NumGoroutine(), "osThreads": statusField("Threads:"),
		"heapMiB": float64(heap) / (1024 * 1024), "rssMiB": float64(statusField("VmRSS:")) / 1024,
		"goVersion": runtime.Version(), "gomaxprocs": runtime.GOMAXPROCS(0), "gogc": os.Getenv("GOGC")})
	runtime.KeepAlive(all)
	close(stop)
}

func allSynced(all []cache.SharedIndexInformer) bool {
	for _, informer := range all {
		if !informer.HasSynced() {
			return false
		}
	}
	return true
}

// statusField reads a numeric field of /proc/self/status (VmRSS in KiB, Threads).
func statusField(name string) uint64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, name) {
			fields := strings.Fields(line)
			if len(fields) >= 2 {
				value, _ := strconv.ParseUint(fields[1], 10, 64)
				return value
			}
		}
	}
	return 0
}
