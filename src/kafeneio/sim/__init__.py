"""Simulation: playing many games, benchmarks, statistics."""
