/* Site-wide behaviour, loaded in <head> without defer: it must mark <html> as "js" before the
   first paint, so controls meant for browsers without JavaScript never flash. Everything else
   waits for the document. */
document.documentElement.classList.replace("no-js", "js");
