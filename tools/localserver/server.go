package localserver

// The local server. A long-running quarry process of a workspace (quarry mcp, quarry watch,
// and quarry index while it runs) listens on a Unix socket in the workspace's .quarry/
// directory, and the other quarry processes of the same user ask it instead of opening the
// index themselves: a search from another terminal answers from what the server's index run
// has committed instead of failing with INDEX_BUSY, a second index run waits for the
// server's and runs there, and quarry health reports the server's watcher. The socket's file
// has mode 0600 and the server refuses a peer of another user (SO_PEERCRED where the system
// has it).
//
// The protocol: on accepting, the server writes a hello line ({"quarry": agent version,
// "pid": ...}); the client writes one request line ({"op": operation name, "args": its
// request}); the server runs it through the same handlers as Service.Call and writes one
// response line ({"result": ...} or {"error": the contract's error}), then closes. A client
// that goes away cancels its request. A client that finds no server, a server of another
// agent version, or a server that dies before it answers runs the operation itself.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/quarrysearch/quarry/index/store"
	"github.com/quarrysearch/quarry/tools"
	"github.com/quarrysearch/quarry/workspace"
)

// SocketFile is the name of the local server's socket in a workspace's .quarry/ directory;
// SocketFile+".lock" is held (flock) by the server while it runs.
const SocketFile = "quarry.sock"

// maxSocketPath is the longest socket path the kernel takes (sun_path, less its NUL);
// a longer one is reached through the directory's descriptor (/proc/self/fd/N/quarry.sock).
const maxSocketPath = 107

// localDialTimeout bounds connecting to a server and reading its hello.
const localDialTimeout = time.Second

// maxLocalRequest bounds a request line.
const maxLocalRequest = 4 << 20

// ServerRunningError is returned by Listen when another process serves the workspace.
type ServerRunningError struct {
	PID int // the serving process
}

func (e *ServerRunningError) Error() string {
	return fmt.Sprintf("quarry process %d already serves this workspace", e.PID)
}

type localHello struct {
	Quarry string `json:"quarry"` // the server's agent version
	PID    int    `json:"pid"`
}

type localRequest struct {
	Op   string          `json:"op"`
	Args json.RawMessage `json:"args"`
	// MaxBytes is the client's default budget of an answer (Service.MaxBytes): a command
	// line asking an MCP server gets its whole answer.
	MaxBytes int `json:"max_bytes"`
}

type localResponse struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *tools.Error    `json:"error,omitempty"`
}

// LocalServer is the listening local server of a workspace.
type LocalServer struct {
	ln       net.Listener
	lock     *os.File
	path     string
	lockPath string
	cancel   context.CancelFunc
	wg       sync.WaitGroup
}

// Listen makes s the local server of its workspace until Close: the socket in .quarry/ is
// created (mode 0600) and other quarry processes' requests are run by s. When another live
// process serves the workspace already, it returns a *ServerRunningError.
func Listen(s *tools.Service) (*LocalServer, error) {
	dir := filepath.Join(s.Root(), workspace.DataDir)
	if err := os.MkdirAll(dir, store.DirMode); err != nil {
		return nil, tools.AsError(err)
	}
	lockPath := filepath.Join(dir, SocketFile+".lock")
	lock, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, store.FileMode)
	if err != nil {
		return nil, tools.AsError(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, tools.AsError(fmt.Errorf("lock %s: %w", lockPath, err))
		}
		// A server holds the lock; it may still be creating its socket.
		for range 20 {
			if c, hello, err := dialLocal(s.Root()); err == nil {
				c.Close()
				return nil, &ServerRunningError{PID: hello.PID}
			}
			time.Sleep(50 * time.Millisecond)
		}
		return nil, &ServerRunningError{}
	}
	path := filepath.Join(dir, SocketFile)
	_ = os.Remove(path) // left by a server that died: the lock is ours
	ln, err := listenUnix(path)
	if err != nil {
		lock.Close()
		return nil, tools.AsError(err)
	}
	if err := os.Chmod(path, store.FileMode); err != nil {
		ln.Close()
		lock.Close()
		return nil, tools.AsError(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ls := &LocalServer{ln: ln, lock: lock, path: path, lockPath: lockPath, cancel: cancel}
	ls.wg.Add(1)
	go func() {
		defer ls.wg.Done()
		ls.accept(ctx, s)
	}()
	return ls, nil
}

// Close stops the server: no new requests; those in flight are cancelled and waited for.
func (ls *LocalServer) Close() {
	ls.cancel()
	ls.ln.Close()
	ls.wg.Wait()
	// Only its own socket: when .quarry/ was removed and made again, the path is another
	// server's now (a watcher a search started in the new index), which must keep it.
	if ls.Current() {
		os.Remove(ls.path)
	}
	ls.lock.Close()
}

// Current reports whether the server still serves at its socket's path: the lock file
// there is the one it holds. Once .quarry/ is removed (and made again, by a new index and
// its own server), no command reaches this server any more. The held lock keeps its file's
// inode from being reused, so a new lock file never passes for it (a socket file's could).
func (ls *LocalServer) Current() bool {
	held, err := ls.lock.Stat()
	if err != nil {
		return false
	}
	now, err := os.Stat(ls.lockPath)
	return err == nil && os.SameFile(held, now)
}

func (ls *LocalServer) accept(ctx context.Context, s *tools.Service) {
	for {
		c, err := ls.ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(10 * time.Millisecond) // EMFILE and the like: try again
			continue
		}
		ls.wg.Add(1)
		go func() {
			defer ls.wg.Done()
			serveLocal(ctx, s, c)
		}()
	}
}

// serveLocal answers one request on c. A request the server's stop cut short gets no answer:
// the client, reading none, runs it itself (callServer's errNoServer), so that a forced
// index handed to a server that exits mid-run still completes (issue 41).
func serveLocal(ctx context.Context, s *tools.Service, c net.Conn) {
	defer c.Close()
	stopping := ctx.Done()
	enc := json.NewEncoder(c)
	if err := checkPeer(c); err != nil {
		_ = enc.Encode(localResponse{Error: tools.Errorf(tools.CodeBadValue, "", "%v", err)})
		return
	}
	if err := enc.Encode(localHello{Quarry: tools.AgentVersion, PID: os.Getpid()}); err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReaderSize(c, 64<<10)
	line, err := readLine(r, maxLocalRequest)
	if err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	var req localRequest
	if err := json.Unmarshal(line, &req); err != nil {
		_ = enc.Encode(localResponse{Error: tools.Errorf(tools.CodeBadValue, "", "a local request must be one JSON object: %v", err)})
		return
	}
	// The client closing its end (it was interrupted, or timed out) cancels the request.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		_, _ = r.ReadByte()
		cancel()
	}()
	res, err := s.ServeOther(ctx, req.Op, req.Args, req.MaxBytes)
	select {
	case <-stopping:
		return // the server stops: its answer may be the stop's error, not the request's
	default:
	}
	if err != nil {
		_ = enc.Encode(localResponse{Error: tools.AsError(err)})
		return
	}
	raw, err := json.Marshal(res)
	if err != nil {
		_ = enc.Encode(localResponse{Error: tools.AsError(err)})
		return
	}
	_ = enc.Encode(localResponse{Result: raw})
}

// readLine reads a line of at most max bytes.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > max {
			return nil, fmt.Errorf("line over %d bytes", max)
		}
		if err == nil {
			return line, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
	}
}

// dialLocal connects to the server of the workspace at root and reads its hello.
func dialLocal(root string) (net.Conn, localHello, error) {
	var hello localHello
	c, err := dialUnix(filepath.Join(root, workspace.DataDir, SocketFile))
	if err != nil {
		return nil, hello, err
	}
	_ = c.SetReadDeadline(time.Now().Add(localDialTimeout))
	line, err := readLine(bufio.NewReader(c), 64<<10)
	if err == nil {
		err = json.Unmarshal(line, &hello)
		if err == nil && hello.PID == 0 { // a refusal
			var res localResponse
			if json.Unmarshal(line, &res) == nil && res.Error != nil {
				err = res.Error
			} else {
				err = errors.New("no hello from the local server")
			}
		}
	}
	if err != nil {
		c.Close()
		return nil, hello, err
	}
	_ = c.SetReadDeadline(time.Time{})
	return c, hello, nil
}

// errNoServer means no server of the workspace answered: the client runs the operation itself.
var errNoServer = errors.New("no local server")

// Client hands operations to the server of a service's workspace (tools.Forwarder).
type Client struct{}

// Forward runs op with req in the server of s's workspace and returns its result; ok is
// false when there is no server to ask (none listens, another agent version, or it went
// away before answering): s runs it itself.
func (Client) Forward(ctx context.Context, s *tools.Service, op string, req any) (json.RawMessage, bool, error) {
	raw, err := callServer(ctx, s, op, req)
	if errors.Is(err, errNoServer) {
		return nil, false, nil
	}
	return raw, true, err
}

// callServer runs op with req in the server of s's workspace and returns its result, or
// errNoServer when there is no server to ask.
func callServer(ctx context.Context, s *tools.Service, op string, req any) (json.RawMessage, error) {
	c, hello, err := dialLocal(s.Root())
	if err != nil || hello.Quarry != tools.AgentVersion {
		if c != nil {
			c.Close()
		}
		return nil, errNoServer
	}
	defer c.Close()
	if s.OnServer != nil {
		s.OnServer(op, hello.PID)
	}
	args, err := json.Marshal(req)
	if err != nil {
		return nil, tools.AsError(err)
	}
	line, err := json.Marshal(localRequest{Op: op, Args: args, MaxBytes: s.MaxBytes})
	if err != nil {
		return nil, tools.AsError(err)
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if _, err := c.Write(append(line, '\n')); err != nil {
		if ctx.Err() != nil {
			return nil, tools.AsError(ctx.Err())
		}
		return nil, errNoServer
	}
	resp, err := readLine(bufio.NewReaderSize(c, 64<<10), 1<<30)
	if err != nil {
		if ctx.Err() != nil {
			return nil, tools.AsError(ctx.Err())
		}
		return nil, errNoServer // the server died: run it here
	}
	var res localResponse
	if err := json.Unmarshal(resp, &res); err != nil {
		return nil, tools.Errorf(tools.CodeInternal, "", "the local server (pid %d) answered %s: %v", hello.PID, op, err)
	}
	if res.Error != nil {
		return nil, res.Error
	}
	return res.Result, nil
}

// listenUnix listens on the socket path, reaching a long path through its directory's
// descriptor.
func listenUnix(path string) (net.Listener, error) {
	p, done, err := shortSocketPath(path)
	if err != nil {
		return nil, err
	}
	defer done()
	ln, err := net.Listen("unix", p)
	if err != nil {
		return nil, err
	}
	// Close must not unlink by p: through a descriptor closed by then, it could name another
	// directory's file. LocalServer.Close removes the socket by its real path.
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	return ln, nil
}

// dialUnix connects to the socket path.
func dialUnix(path string) (net.Conn, error) {
	p, done, err := shortSocketPath(path)
	if err != nil {
		return nil, err
	}
	defer done()
	return net.DialTimeout("unix", p, localDialTimeout)
}

// shortSocketPath returns path, or when it is too long for a socket address, the same file
// through a descriptor of its directory; done closes that descriptor.
func shortSocketPath(path string) (string, func(), error) {
	if len(path) <= maxSocketPath {
		return path, func() {}, nil
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return "", nil, err
	}
	p := "/proc/self/fd/" + strconv.Itoa(int(d.Fd())) + "/" + filepath.Base(path)
	return p, func() { d.Close() }, nil
}
