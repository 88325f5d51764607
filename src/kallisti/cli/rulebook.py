"""The rule book's names where `kallisti show` reads them: the rule book itself is `kallisti.rulebook`."""

from kallisti.rulebook.build import build_book, first_sentence  # noqa: F401
from kallisti.rulebook.render import EXTENSIONS, RENDERERS, render_index, render_text  # noqa: F401
