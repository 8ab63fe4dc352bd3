"""Exercise types: generators and graders backed by the engine.

``REGISTRY`` maps each type's slug to its instance; ``get(slug)`` looks one up.
"""
