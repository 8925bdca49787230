// The target that owns cmake/TrellisPCH.h (see there).
