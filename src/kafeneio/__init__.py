"""kafeneio: Café International and Souvlaki Wars, faithful rules engines for play and research."""

__version__ = "0.1.0"
