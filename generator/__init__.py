"""Reliability Error References: records -> validation -> pages and indexes -> site."""
