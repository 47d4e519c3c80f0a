"""Import-only stand-in for OpenCV (cv2), for bench/football/golden_traces.py.

gfootball imports cv2 at module level but only calls it to render dumps, videos
and pixel observations, none of which the golden traces use. Any use of cv2
raises AttributeError, so a code path that really needs OpenCV fails loudly.
"""
