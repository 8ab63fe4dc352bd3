"""The referee's calculator (issue 37 §6): does a claim or an open defender's play hold?"""
