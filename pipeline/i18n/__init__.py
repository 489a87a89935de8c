"""geodeck's languages: a registry of gettext catalogues (`registry`), their messages (`catalogue`) and
the names CLDR gives countries and continents (`names`). No language is named in code: the source language
and the catalogues are data under templates/locale/ (docs/languages.md)."""
