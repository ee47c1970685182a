"""Throne and Ascent for game-AI libraries: OpenSpiel and PettingZoo.

- :mod:`castlerules.adapters.openspiel`: importing it registers the games
  ``castlerules_throne`` and ``castlerules_ascent`` with OpenSpiel (the
  ``openspiel`` extra);
- :mod:`castlerules.adapters.pettingzoo`: ``throne_env()`` and ``ascent_env()``,
  PettingZoo AEC environments (the ``pettingzoo`` extra);
- :mod:`castlerules.adapters.numbering`: the numbered actions, chance outcomes
  and seat views both share (the standard library only).

This package imports none of them, so that ``import castlerules.adapters``
needs no extra.
"""
