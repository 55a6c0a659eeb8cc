"""argparse's own messages, marked here so that lecturekit's catalog translates them.

argparse looks its words up with gettext (``usage: ``, ``the following arguments are required:
%s``); while the command speaks another language, :func:`lecturekit.cli._argparse_speaks` points
that look-up at lecturekit's catalog. The English here is argparse's, character for character
(Python 3.10 to 3.13), so the catalog finds them; nothing imports this module.
"""

from ..language import N_

MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
    N_("unexpected option string: %s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)
