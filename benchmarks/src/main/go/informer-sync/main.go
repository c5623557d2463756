// Command informer-sync measures a client-go informer the way Kubeop's InformerSyncBenchmark
// measures the Java informers: time from start until the ConfigMaps of one namespace have
// synced, and heap retained per cached object after a full GC. It prints one JSON line.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file")
	namespace := flag.String("namespace", "", "namespace to watch")
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
	before := heapAfterGC()
	start := time.Now()
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(*namespace))
	informer := factory.Core().V1().ConfigMaps().Informer()
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(interface{}) {}}); err != nil {
		fail(err)
	}
	stop := make(chan struct{})
	factory.Start(stop)
	if !cache.WaitForCacheSync(stop, informer.HasSynced) {
		fail(fmt.Errorf("cache did not sync"))
	}
	synced := time.Since(start)
	objects := len(informer.GetStore().List())
	after := heapAfterGC()
	// keep the informer and its cache reachable until after the measurement
	runtime.KeepAlive(informer.GetStore())
	close(stop)
	perObject := int64(0)
	if objects > 0 && after > before {
		perObject = int64(after-before) / int64(objects)
	}
	out, _ := json.Marshal(map[string]int64{"syncMillis": synced.Milliseconds(), "objects": int64(objects),
		"bytesPerObject": perObject})
	fmt.Println(string(out))
	_ = corev1.ConfigMap{}
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
