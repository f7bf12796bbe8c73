package main

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"sync"
)

// FerretDB 1.24 runs findAndModify and updates as a read, then a write, without isolation, so two
// connections can lose each other's increments. MongoDB makes every single-document write atomic,
// and Roster relies on that. This proxy restores it for tests: it forwards each client request to
// FerretDB and holds one lock until the answer is back, so commands never interleave.

const (
	opMsg      = 2013
	moreToCome = 1 << 1
)

var commands sync.Mutex

// open holds every relayed connection, so that stopping can cut them all at once.
var open = struct {
	sync.Mutex
	conns map[net.Conn]struct{}
}{conns: map[net.Conn]struct{}{}}

func track(conn net.Conn) {
	open.Lock()
	open.conns[conn] = struct{}{}
	open.Unlock()
}

func untrack(conn net.Conn) {
	open.Lock()
	delete(open.conns, conn)
	open.Unlock()
	conn.Close()
}

// closeAll cuts every client and FerretDB connection: a stopped server answers nobody.
func closeAll() {
	open.Lock()
	defer open.Unlock()
	for conn := range open.conns {
		conn.Close()
	}
}

// serve accepts clients on listener, each with its own connection to FerretDB at backend.
func serve(listener net.Listener, backend string) {
	for {
		client, err := listener.Accept()
		if err != nil {
			return
		}
		go relay(client, backend)
	}
}

func relay(client net.Conn, backend string) {
	track(client)
	defer untrack(client)
	server, err := net.Dial("tcp", backend)
	if err != nil {
		return
	}
	track(server)
	defer untrack(server)
	for {
		request, err := readMessage(client)
		if err != nil {
			return
		}
		if err := exchange(request, server, client); err != nil {
			return
		}
	}
}

func exchange(request []byte, server, client net.Conn) error {
	// Monitoring commands may wait on the server; they change nothing, so they need no turn.
	if !isHandshake(request) {
		commands.Lock()
		defer commands.Unlock()
	}
	if _, err := server.Write(request); err != nil {
		return err
	}
	// FerretDB answers even a request that asked for no answer; the client must not see it.
	answer, err := readMessage(server)
	if err != nil || expectsNoAnswer(request) {
		return err
	}
	_, err = client.Write(answer)
	return err
}

func readMessage(r io.Reader) ([]byte, error) {
	var header [4]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return nil, err
	}
	length := binary.LittleEndian.Uint32(header[:])
	if length < 16 || length > 64<<20 {
		return nil, io.ErrUnexpectedEOF
	}
	message := make([]byte, length)
	copy(message, header[:])
	_, err := io.ReadFull(r, message[4:])
	return message, err
}

func opCode(message []byte) uint32 { return binary.LittleEndian.Uint32(message[12:16]) }

func expectsNoAnswer(message []byte) bool {
	return opCode(message) == opMsg && len(message) >= 20 && binary.LittleEndian.Uint32(message[16:20])&moreToCome != 0
}

// isHandshake tells hello and isMaster apart by the command's name: the first key of section 0.
func isHandshake(message []byte) bool {
	if opCode(message) != opMsg || len(message) < 27 || message[20] != 0 {
		return false
	}
	name := message[26:]
	if end := bytes.IndexByte(name, 0); end >= 0 {
		name = name[:end]
	}
	switch string(name) {
	case "hello", "isMaster", "ismaster":
		return true
	}
	return false
}
