// A MongoDB-compatible test server: FerretDB on SQLite, embedded so the tests need no database
// installed, behind a proxy that makes its commands atomic (see serialize.go). It prints
// "ready <uri>" once it accepts connections and stops on SIGINT or SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "TCP address to listen on")
	data := flag.String("data", "", "data directory (created if missing)")
	lifeline := flag.Bool("lifeline", false, "stop when standard input closes (the parent went away)")
	flag.Parse()
	if *data == "" {
		fmt.Fprintln(os.Stderr, "-data is required")
		os.Exit(2)
	}
	if err := os.MkdirAll(*data, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	server, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: "127.0.0.1:0"},
		Handler:   "sqlite",
		SQLiteURL: "file:" + *data + "/",
		Logger:    slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	done := make(chan struct{})
	go func() {
		_ = server.Run(ctx)
		close(done)
	}()

	listener, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// MongoDBURI waits until Run has FerretDB's own listener up.
	backend, err := url.Parse(server.MongoDBURI())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go serve(listener, backend.Host)
	if *lifeline {
		// The test runner holds our standard input: when it goes away, even killed, so do we.
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}
	fmt.Println("ready mongodb://" + listener.Addr().String() + "/")
	<-ctx.Done()
	listener.Close()
	closeAll()
	<-done
}
