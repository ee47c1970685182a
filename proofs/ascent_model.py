"""Ascent proofs — owned by the Ascent proofs helper; the Throne proofs helper must not write this file."""
