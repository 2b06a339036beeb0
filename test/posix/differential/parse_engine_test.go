//go:build unix

package differential

func checkEngineParse(br *parseRun, src string, gen *pChain) string { return "" }
