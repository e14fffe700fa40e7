/* The compiler quotes these bytes back in its log. */
#error "déjà vu ÿþ"
