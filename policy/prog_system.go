package policy

// System package managers and service control: known only by the verb of
// their suggested rules ("apt-get install:*", "systemctl status:*").

func registerSystem() {
	register(&program{names: []string{"apt", "apt-get", "brew", "dnf", "yum", "nix", "systemctl"}, verb: 2})
}
