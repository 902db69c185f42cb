"""Errors a user can cause. The CLI turns them into one line and an exit code."""


class AnalyzerError(Exception):
    """Bad input: a file, an option or a bot. Exit code 2 (usage) by default."""

    exit_code = 2


class InputFileError(AnalyzerError):
    """A data file that cannot be read or does not validate."""


class BotError(AnalyzerError):
    """An unknown bot, a bad bot parameter or a broken bot file."""


class OutputError(AnalyzerError):
    """The output could not be written (a full disk, a lost mount, a closed
    stdout): the input was fine. Exit code 1."""

    exit_code = 1
