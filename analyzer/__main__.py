from analyzer.cli import console

console()
