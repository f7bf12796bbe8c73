// An OTLP/HTTP trace receiver for the tests: it decodes each export with the OpenTelemetry
// Collector's own data model (pdata), JSON or protobuf, and prints every span as one JSON line on
// standard output, for the test that started it to read.
package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

func main() {
	http.HandleFunc("/v1/traces", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req := ptraceotlp.NewExportRequest()
		var err error
		if r.Header.Get("Content-Type") == "application/json" {
			err = req.UnmarshalJSON(body)
		} else {
			err = req.UnmarshalProto(body)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		rs := req.Traces().ResourceSpans()
		for i := 0; i < rs.Len(); i++ {
			service, _ := rs.At(i).Resource().Attributes().Get("service.name")
			ss := rs.At(i).ScopeSpans()
			for j := 0; j < ss.Len(); j++ {
				spans := ss.At(j).Spans()
				for k := 0; k < spans.Len(); k++ {
					s := spans.At(k)
					tid := s.TraceID()
					sid := s.SpanID()
					pid := s.ParentSpanID()
					line, _ := json.Marshal(map[string]any{
						"service": service.AsString(), "name": s.Name(), "traceId": hex.EncodeToString(tid[:]),
						"spanId": hex.EncodeToString(sid[:]), "parentSpanId": hex.EncodeToString(pid[:]),
						"attributes": s.Attributes().AsRaw(),
					})
					fmt.Println(string(line))
				}
			}
		}
		out, _ := ptraceotlp.NewExportResponse().MarshalJSON()
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
	})
	fmt.Fprintln(os.Stderr, "listening")
	if err := http.ListenAndServe(os.Args[1], nil); err != nil {
		panic(err)
	}
}
