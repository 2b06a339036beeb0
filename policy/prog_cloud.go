package policy

// Cloud and hosting clients: known only by the verb of their suggested
// rules, which takes a service and an action ("aws s3 ls:*", "gh pr
// view:*").

func registerCloud() {
	registerAll(
		&program{names: []string{"terraform"}, verb: 2},
		&program{names: []string{"aws", "gh", "gcloud", "az"}, verb: 3},
	)
}
