// Package listenaddr says where a server listening on an address can be reached: for a
// wildcard address (0.0.0.0, [::], ":8707") the addresses of this computer's network
// interfaces, which another computer can use, rather than the wildcard itself.
package listenaddr

import (
	"net"
	"net/netip"
	"slices"
)

// URLs returns the http URLs of a listener at addr ("HOST:PORT"): the address itself when it
// names one host, else localhost and every up interface's address (IPv4 first), sorted.
func URLs(addr string) []string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return []string{"http://" + addr + "/"}
	}
	ip, err := netip.ParseAddr(host)
	if host != "" && (err != nil || !ip.IsUnspecified()) {
		return []string{"http://" + net.JoinHostPort(host, port) + "/"}
	}
	ifs, _ := net.InterfaceAddrs()
	return urls(ifs, port, host != "" && ip.Is4())
}

// urls lists the interfaces' addresses as URLs on port (only IPv4 ones when v4only).
func urls(ifs []net.Addr, port string, v4only bool) []string {
	var v4, v6 []netip.Addr
	for _, a := range ifs {
		pfx, err := netip.ParsePrefix(a.String())
		if err != nil {
			continue
		}
		ip := pfx.Addr().Unmap()
		switch {
		case ip.IsLoopback(), ip.IsLinkLocalUnicast(), ip.IsMulticast(), ip.IsUnspecified():
		case ip.Is4():
			v4 = append(v4, ip)
		case !v4only:
			v6 = append(v6, ip)
		}
	}
	slices.SortFunc(v4, netip.Addr.Compare)
	slices.SortFunc(v6, netip.Addr.Compare)
	out := []string{"http://localhost:" + port + "/"}
	for _, ip := range slices.Concat(v4, v6) {
		out = append(out, "http://"+net.JoinHostPort(ip.String(), port)+"/")
	}
	return out
}
