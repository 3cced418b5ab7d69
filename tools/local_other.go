//go:build !linux

package tools

import "net"

// checkPeer accepts every peer: the socket's mode (0600) keeps other users out.
func checkPeer(net.Conn) error { return nil }
