// Command informer-sync measures a client-go informer the way Kubeop's Java harnesses
// measure the Java informers. It has three modes (-mode many is in many.go).
//
// -mode sync: time from starting the informer (client and informer built before) until
// its HasSynced is true, polled every millisecond as the Java harness polls the Java
// informers; heap retained per cached object after a full GC, and the process's VmRSS;
// with -strip-managed-fields the factory is built WithTransform dropping managedFields
// before objects enter the cache. Prints one JSON line.
//
// -mode events: informs on the ConfigMaps of one namespace, prints {"synced":true} once
// synced, resets its counters when it reads the first line from stdin, notes the events
// seen and the time elapsed when it reads the second, and when stdin closes prints those
// and the latency from write to handler call (the written-at annotation, microseconds since
// the epoch) at p50 and p99 of the events seen after the first line.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

const writtenAt = "bench.kubeop.io/written-at"

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file")
	namespace := flag.String("namespace", "", "namespace to watch")
	resource := flag.String("resource", "configmaps", "configmaps or pods")
	mode := flag.String("mode", "sync", "sync or events")
	strip := flag.Bool("strip-managed-fields", false, "drop managedFields with a transform")
	flag.Parse()
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fail(err)
	}
	config.QPS = 1000
	config.Burst = 1000
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fail(err)
	}
	if *mode == "events" {
		events(client, *namespace)
		return
	}
	if *mode == "many" {
		many(client)
		return
	}
	options := []informers.SharedInformerOption{informers.WithNamespace(*namespace)}
	if *strip {
		options = append(options, informers.WithTransform(stripManagedFields))
	}
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, options...)
	var informer cache.SharedIndexInformer
	switch *resource {
	case "configmaps":
		informer = factory.Core().V1().ConfigMaps().Informer()
	case "pods":
		informer = factory.Core().V1().Pods().Informer()
	default:
		fail(fmt.Errorf("unknown resource %q", *resource))
	}
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(interface{}) {}}); err != nil {
		fail(err)
	}
	stop := make(chan struct{})
	before := heapAfterGC()
	start := time.Now()
	factory.Start(stop)
	// WaitForCacheSync polls every 100 ms: poll as the Java harness does, every millisecond
	for !informer.HasSynced() {
		time.Sleep(time.Millisecond)
	}
	synced := time.Since(start)
	after := heapAfterGC()
	rss := residentSetBytes()
	cached := informer.GetStore().List()
	objects := len(cached)
	withManagedFields := 0
	for _, object := range cached {
		if accessor, err := meta.Accessor(object); err == nil && len(accessor.GetManagedFields()) > 0 {
			withManagedFields++
		}
	}
	// keep the informer and its cache reachable until after the measurement
	runtime.KeepAlive(informer.GetStore())
	close(stop)
	perObject := int64(0)
	if objects > 0 && after > before {
		perObject = int64(after-before) / int64(objects)
	}
	emit(map[string]interface{}{"syncMillis": float64(synced.Microseconds()) / 1000, "objects": objects,
		"rssMiB": float64(rss) / (1024 * 1024), "cachedWithManagedFields": withManagedFields,
		"bytesPerObject": perObject, "goVersion": runtime.Version(), "gomaxprocs": runtime.GOMAXPROCS(0),
		"gogc": os.Getenv("GOGC")})
}

func events(client kubernetes.Interface, namespace string) {
	var mu sync.Mutex
	var count int64
	latencies := make([]int64, 0, 1<<16)
	started := time.Now()
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(namespace))
	informer := factory.Core().V1().ConfigMaps().Informer()
	_, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj interface{}) {
			now := time.Now().UnixMicro()
			configMap := obj.(*corev1.ConfigMap)
			mu.Lock()
			defer mu.Unlock()
			count++
			if value, ok := configMap.Annotations[writtenAt]; ok {
				if written, err := strconv.ParseInt(value, 10, 64); err == nil {
					latencies = append(latencies, now-written)
				}
			}
		},
	})
	if err != nil {
		fail(err)
	}
	stop := make(chan struct{})
	factory.Start(stop)
	if !cache.WaitForCacheSync(stop, informer.HasSynced) {
		fail(fmt.Errorf("cache did not sync"))
	}
	emit(map[string]bool{"synced": true})
	input := bufio.NewScanner(os.Stdin)
	marked := false
	var markedCount int64
	var markedElapsed time.Duration
	for lines := 0; input.Scan(); lines++ {
		mu.Lock()
		if lines == 0 {
			count = 0
			latencies = latencies[:0]
			started = time.Now()
		} else if !marked {
			marked = true
			markedCount = count
			markedElapsed = time.Since(started)
		}
		mu.Unlock()
	}
	mu.Lock()
	if !marked {
		markedCount = count
		markedElapsed = time.Since(started)
	}
	result := map[string]interface{}{"events": markedCount, "elapsedMillis": markedElapsed.Milliseconds(),
		"latencyMicros": percentiles(latencies)}
	mu.Unlock()
	close(stop)
	emit(result)
}

func percentiles(values []int64) map[string]int64 {
	if len(values) == 0 {
		return map[string]int64{}
	}
	sorted := append([]int64(nil), values...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	at := func(p float64) int64 { return sorted[int(p*float64(len(sorted)-1))] }
	return map[string]int64{"p50": at(0.50), "p99": at(0.99), "samples": int64(len(sorted))}
}

func emit(value interface{}) {
	out, _ := json.Marshal(value)
	fmt.Println(string(out))
}

// stripManagedFields is the transform client-go's documentation suggests for caches that
// do not need managedFields.
func stripManagedFields(object interface{}) (interface{}, error) {
	if accessor, err := meta.Accessor(object); err == nil {
		accessor.SetManagedFields(nil)
	}
	return object, nil
}

// residentSetBytes reads VmRSS from /proc/self/status.
func residentSetBytes() uint64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			fields := strings.Fields(line)
			if len(fields) >= 2 {
				kib, _ := strconv.ParseUint(fields[1], 10, 64)
				return kib * 1024
			}
		}
	}
	return 0
}

func heapAfterGC() uint64 {
	var stats runtime.MemStats
	for i := 0; i < 3; i++ {
		runtime.GC()
	}
	runtime.ReadMemStats(&stats)
	return stats.HeapAlloc
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
