package policy

// Container and cluster clients: docker and kubectl take global options
// before their subcommand (docker --context x run, kubectl -n ns delete),
// skipped so "docker run:*" and "kubectl delete:*" see the subcommand.

func registerContainers() {
	registerAll(
		&program{names: []string{"podman", "helm"}, verb: 2},
		&program{names: []string{"docker"}, verb: 2, longVerbs: []string{"compose", "image", "container"},
			global: &optSpec{shortVal: "Hcl", shortFlag: "D", longVal: []string{"host", "context", "config", "log-level", "tlscacert", "tlscert", "tlskey"},
				longFlag: []string{"debug", "tls", "tlsverify"}}},
		&program{names: []string{"kubectl"}, verb: 2,
			global: &optSpec{shortVal: "nsv", longVal: []string{"namespace", "context", "cluster", "user", "kubeconfig", "server", "token", "as",
				"as-group", "request-timeout"}, longFlag: []string{"insecure-skip-tls-verify"}}},
	)
}
