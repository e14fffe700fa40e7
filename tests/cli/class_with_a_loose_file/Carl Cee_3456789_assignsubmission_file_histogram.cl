// Carl Cee's histogram.cl as a flat LMS download names it; skipped, never graded
